import { ApiError } from '../errors/api-error.js';
import type { Account } from '../store/account.js';
import type { TargetRecord } from '../store/records.js';
import { defaultBrandKit, mergeBrandKit, type BrandKitInput } from './brand-kit.js';

export interface TargetCreateInput {
  name: string;
  slug: string;
  description?: string;
  brandKit?: BrandKitInput;
}

export function assertSlugFree(account: Account, slug: string, exceptId?: string): void {
  const owner = account.slugs.get(slug);
  if (owner !== undefined && owner !== exceptId) {
    throw new ApiError(409, 'CONFLICT', `The slug "${slug}" is already used by another target of this account.`, {
      field: 'slug',
      targetId: owner,
    });
  }
}

export function createTarget(account: Account, input: TargetCreateInput, now: number): TargetRecord {
  assertSlugFree(account, input.slug);
  const target: TargetRecord = {
    id: account.newId(),
    name: input.name,
    slug: input.slug,
    description: input.description ?? '',
    brandKit: mergeBrandKit(defaultBrandKit(), input.brandKit),
    createdAt: now,
    updatedAt: now,
  };
  account.targets.add(target);
  account.slugs.set(target.slug, target.id);
  return target;
}

export function findTarget(account: Account, id: string): TargetRecord {
  return account.targets.require(id);
}


export interface TargetUpdateInput {
  name?: string;
  slug?: string;
  description?: string;
  brandKit?: BrandKitInput;
}

/**
 * Applies a partial update: the fields given replace theirs, the brand kit is merged part by
 * part. A slug already used by another target is refused before anything changes.
 */
export function updateTarget(account: Account, id: string, input: TargetUpdateInput, now: number): TargetRecord {
  const target = findTarget(account, id);
  if (input.slug !== undefined) assertSlugFree(account, input.slug, target.id);
  if (input.slug !== undefined && input.slug !== target.slug) {
    account.slugs.delete(target.slug);
    account.slugs.set(input.slug, target.id);
    target.slug = input.slug;
  }
  if (input.name !== undefined) target.name = input.name;
  if (input.description !== undefined) target.description = input.description;
  if (input.brandKit !== undefined) target.brandKit = mergeBrandKit(target.brandKit, input.brandKit);
  target.updatedAt = now;
  return target;
}

/**
 * Deletes a target with its library and frees its slug. Its builds stay: each keeps the
 * snapshot of the target it was built with, so they and their deliverables stay readable.
 */
export function deleteTarget(account: Account, id: string): void {
  const target = findTarget(account, id);
  // The target's library goes with it (the library sits above targets and is not called from here).
  for (const item of account.library.valuesBy('targetId', target.id)) account.library.remove(item.id);
  account.slugs.delete(target.slug);
  account.targets.remove(target.id);
}
