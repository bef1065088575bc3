/**
 * A small front end's page, the same in a browser and in Node: the balance and the builds with
 * their statuses, from the API at `apiBase`, rendered as HTML. The fixture tests drive it.
 */
export async function renderBuildsPage(fetchApi, apiBase, key) {
  const get = async (path) => {
    const response = await fetchApi(`${apiBase}${path}`, { headers: { authorization: `Bearer ${key}` } });
    return { status: response.status, body: await response.json() };
  };
  const balance = await get('/api/v1/tokens/balance');
  if (balance.status !== 200) return `<p class="error" data-code="${balance.body.code}">${balance.body.error}</p>`;
  const builds = await get('/api/v1/builds?limit=100');
  const items = builds.body.data.map((b) => `<li data-status="${b.status}">${b.kind}: ${b.status}</li>`).join('');
  return `<p class="balance">${balance.body.balance} tokens</p><ul class="builds">${items}</ul>${builds.body.data.length === 0 ? '<p class="empty">No builds yet</p>' : ''}`;
}
