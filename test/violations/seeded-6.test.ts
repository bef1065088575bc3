import { describeFocusedFaults } from './focused-faults.js';
import { PROTOCOL_FLOW_FAULTS } from './protocol-flow-faults.js';

describeFocusedFaults('seeded faults of the OAuth and MCP flows past their first step', PROTOCOL_FLOW_FAULTS);
