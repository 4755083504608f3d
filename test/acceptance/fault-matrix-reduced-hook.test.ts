import { faultMatrix } from './fault-matrix.js';

faultMatrix('reduced-hook');
