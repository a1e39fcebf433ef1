// The checks of the fixture page, tests/web/fixtures/ (the API: tests/web/browser.mjs).
export default async function check({ page, expect }) {
  await page.waitForSelector('#status[data-state]');
  const fixture = await page.evaluate(() => window.fixture);
  expect(fixture, 'the page ran to the end (window.fixture is set)');
  if (!fixture) return;
  expect(fixture.puzzle === 'fixture', 'data.json fetched and parsed');
  expect(fixture.sum === 5, `add.wasm instantiated by streaming: add(2, 3) = ${fixture.sum}`);
  expect(fixture.isolated === true, 'cross-origin isolated (COOP and COEP headers)');
  expect(await page.evaluate(() => typeof SharedArrayBuffer === 'function'), 'SharedArrayBuffer is available');
}
