/**
 * Properties over the whole request contract, driven by openapi.yaml itself: generated bodies
 * at the edges of validity read back exactly, each constraint broken once and refused, fields
 * resent unchanged, defaults taken, the laws of pages, and the bytes of URLs and media types.
 * Inputs are drawn by fast-check from a seed (the model phase's, --model-seed) and shrunk.
 */
import type { Check } from '../check.js';
import type { OperationInfo } from '../../shared/openapi-model.js';
import { byteChecks } from './bytes.js';
import { capabilityChecks } from './capabilities.js';
import { defaultChecks } from './defaults.js';
import { pageChecks } from './pages.js';
import { refusalChecks } from './refusals.js';
import { roundTripChecks } from './round-trip.js';
import { updateChecks } from './updates.js';

export function propertyChecks(operations: readonly OperationInfo[]): Check[] {
  return [...roundTripChecks(), ...refusalChecks(), ...updateChecks(), ...defaultChecks(), ...pageChecks(operations), ...byteChecks(operations), ...capabilityChecks()];
}
