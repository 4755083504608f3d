import { faultMatrix } from './fault-matrix.js';

faultMatrix('max-tolerance');
