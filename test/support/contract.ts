import { fileURLToPath } from 'node:url';
import { ContractValidator, type ObservedResponse } from '../../contracts/shared/contract-validator.js';

const root = fileURLToPath(new URL('../..', import.meta.url));

/** One validator for every test: the service contract plus the simulator's control API. */
export const contract = ContractValidator.fromFiles({
  service: `${root}openapi.yaml`,
  control: `${root}simulator-control.yaml`,
});

/** Fails the test when a response breaks openapi.yaml: undocumented status, header or body. */
export function assertContract(observed: ObservedResponse): void {
  contract.assertValid(observed);
}
