import { routeFamily } from '../../route-family.js';
import { executionFamily } from './family.js';
import { walkerDialect } from './walker-dialect.js';

/** The execution endpoints under `/walker`, in walker's dialect (docs/api-execution.md). */
export default routeFamily(executionFamily(walkerDialect));
