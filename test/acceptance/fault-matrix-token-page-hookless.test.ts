import { pageFaultMatrix } from './fault-matrix-token-page.js';

pageFaultMatrix('hookless');
