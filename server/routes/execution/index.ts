import { executionFamily } from './family.js';
import { walkerDialect } from './walker-dialect.js';

/** The execution endpoints under `/walker`, in walker's dialect (docs/api-execution.md). */
export default executionFamily(walkerDialect);
