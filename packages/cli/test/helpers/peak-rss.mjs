// Preloaded (node --import) by tests that measure a run: writes the process's peak resident set
// size, in KiB (getrusage's ru_maxrss), to the file $GAMEQUERY_PEAK_RSS_FILE when it exits.
import { writeFileSync } from 'node:fs';

const file = process.env.GAMEQUERY_PEAK_RSS_FILE;
if (file) process.on('exit', () => writeFileSync(file, String(process.resourceUsage().maxRSS)));
