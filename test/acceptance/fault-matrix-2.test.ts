import { faultMatrix } from './fault-matrix.js';

faultMatrix(1, 2);
