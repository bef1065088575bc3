import { describeFocusedFaults } from './focused-faults.js';
import { PROPERTY_FAULTS } from './property-faults.js';

describeFocusedFaults('seeded faults of the request contract, caught by the properties', PROPERTY_FAULTS);
