// @ts-check
/**
 * What an account's view shows below its keys and quotas: one section per registered module.
 * A module adds its own with `accountSection({ id, title, render })` and is imported once by
 * app.js; `render` is called each time the view opens or the account changes, and returns what
 * the section holds (it may fetch more through the control API it is given).
 * @typedef {{ id: string, title: string, render: (account: any, api: import('./api.js').ControlApi) => Node | Promise<Node> }} AccountSection
 */

/** @type {AccountSection[]} */
export const accountSections = [];

/** @param {AccountSection} section */
export function accountSection(section) {
  if (accountSections.some((s) => s.id === section.id)) throw new Error(`an account section ${section.id} is already registered`);
  accountSections.push(section);
}
