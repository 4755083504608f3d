import { faultMatrix } from './fault-matrix.js';

faultMatrix('hook', 0, 2);
