/** gamequery — the command line, as main.ts loads it: parses flags, calls the libraries, prints. */
import { boundHeap, largeInput } from './heap.ts';
import { commandsFor, failed, runProgram } from './program.ts';

// A reader that stops early (`gamequery dissect big.pcap | head`) closes the pipe: the output
// ends there, quietly, as it does for tshark.
process.stdout.on('error', (e: NodeJS.ErrnoException) => {
  if (e.code !== 'EPIPE') throw e;
  process.exit(0);
});

const names = commandsFor(process.argv.slice(2));
// The commands that read captures hold V8's heap to what they need (heap.ts), from before their modules load: where
// they may read much (a pipe, a live capture, a file of 16 MiB or more).
if (names.length === 1 && (names[0] === 'dissect' || names[0] === 'stats') && largeInput(process.argv.slice(2))) boundHeap();
runProgram(process.argv).catch(failed);
