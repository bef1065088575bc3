import { describeFocusedFaults } from './focused-faults.js';
import { DESCRIPTION_FAULTS } from './description-faults.js';

describeFocusedFaults('seeded faults of the behaviour openapi.yaml\'s descriptions state', DESCRIPTION_FAULTS);
