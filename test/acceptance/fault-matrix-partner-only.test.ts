import { faultMatrix } from './fault-matrix.js';

faultMatrix('partner-only');
