import Foundation
import HotPathWorkloads

// The cross-shard hop with the publisher's shard and the remote source's shard on two cores:
//
//   ShardHopAcrossCores [ROUNDS]
//
// Prints the CPU time per packet of each side, of the same packets kept on one shard, and the
// difference: what a hop costs (see Benchmarks/README.md).
let rounds = CommandLine.arguments.count > 1 ? Int(CommandLine.arguments[1]) ?? 2000 : 2000
for run in 1...3 {
    let figures = HopAcrossCores.measure(rounds: rounds)
    print(
        String(
            format: "run %d: producer %.0f ns, consumer %.0f ns, same shard %.0f ns per packet: the hop costs %.0f ns per packet",
            run, figures.producer, figures.consumer, figures.sameShard, figures.hop))
}
