import { faultMatrix } from './fault-matrix.js';

faultMatrix('hook', 1, 2);
