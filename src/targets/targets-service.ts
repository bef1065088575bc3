import { ApiError, notFound } from '../engine/api-error.js';
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
  const target = account.targets.get(id);
  if (!target) throw notFound('target', id);
  return target;
}

