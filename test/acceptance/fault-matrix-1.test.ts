import { faultMatrix } from './fault-matrix.js';

faultMatrix(0, 2);
