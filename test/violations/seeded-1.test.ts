import { describeSeededViolations } from './seeded-catalogue.js';

describeSeededViolations(1);
