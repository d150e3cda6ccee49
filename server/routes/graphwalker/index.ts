import { routeFamily } from '../../route-family.js';
import { executionFamily } from '../execution/family.js';
import { graphwalkerDialect } from './dialect.js';

/** The execution endpoints under `/graphwalker`, in GraphWalker 4.3's dialect (docs/graphwalker.md). */
export default routeFamily(executionFamily(graphwalkerDialect));
