// The declarations must compile and type an app's use of the SDK (types-usage.ts) under
// tsc --strict, with a misspelt event name refused. Skipped when tsc is missing
// (Tools/scripts/install-deps.sh test installs Debian's node-typescript).
import {test} from 'node:test';
import assert from 'node:assert/strict';
import {spawnSync} from 'node:child_process';
import {fileURLToPath} from 'node:url';

const tsc = spawnSync('tsc', ['--version'], {encoding: 'utf8'});
const missing = tsc.error ? 'tsc is not installed (apt-get install node-typescript)' : false;

test('pkrelay.d.ts types an app\'s use of the SDK under tsc --strict', {skip: missing}, () => {
  const usage = fileURLToPath(new URL('types-usage.ts', import.meta.url));
  const run = spawnSync('tsc', ['--noEmit', '--strict', '--target', 'es2020', '--lib', 'es2020,dom', '--moduleResolution', 'node', usage],
    {encoding: 'utf8'});
  assert.equal(run.status, 0, `tsc reported:\n${run.stdout}${run.stderr}`);
});
