/**
 * The simulation's bench sections, run in a process of their own with the heap they need (see
 * {@link runSimulationBench}): `simulate` prints the publish ceiling, one account at its log's limits, the first-try cost, the first wave
 * behind a receiver that starts hanging or slowing, the read storm (how late a publish storm that throttles
 * the consumer's reads makes fast events), the month-end burst and the fan-out to three endpoints per account
 * (also alone: `simulate-fan-out`); `simulate-agree` the agreement check against the local runtime.
 */
import { printAgreement } from './agree/agree';
import { printFirstTryCost, printOneAccount, printPublishCeiling } from './bench';
import { printBurst } from './burst';
import { printFanOut } from './fan-out';
import { printFirstWave } from './first-wave';
import { printReadStorm } from './read-storm';

const sections = process.argv.slice(2);
/**
 * The fan-out's loads: a burst at the stack's default concurrency and at five times it, and the same
 * events paced over 100 s at the default.
 */
const FAN_OUT_LOADS = [
  { maximumConcurrency: 20, publishOverMs: 10_000 },
  { maximumConcurrency: 100, publishOverMs: 10_000 },
  { maximumConcurrency: 20, publishOverMs: 100_000 },
];
if (sections.includes('simulate')) {
  await printPublishCeiling();
  await printOneAccount();
  await printFirstTryCost();
  await printFirstWave([20, 100, 1_000]);
  await printReadStorm();
  await printBurst({ events: 100_000, accounts: 1_000, concurrencies: [20, 100, 1_000] });
}
if (sections.includes('simulate') || sections.includes('simulate-fan-out')) await printFanOut(FAN_OUT_LOADS);
if (sections.includes('simulate-agree')) await printAgreement();
