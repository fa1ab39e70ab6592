import CSocketShims
import Foundation
import Synchronization

@testable import MediaPlane

/// The cross-shard hop with its two sides on two cores, as they run in the relay: the
/// publisher's shard on one core pushes each packet into the ring, the other shard's core pops
/// it and delivers it to its remote source. The sides take turns by rounds of half a ring (the
/// one waiting spins outside the measured time), so each side's CPU time is its own work plus
/// the cache lines it has to fetch from the other core, which is what a hop costs a real shard.
public enum HopAcrossCores {
    /// CPU nanoseconds per packet of each side, and of the same packets kept on one shard.
    public struct Figures: Sendable {
        public var producer: Double
        public var consumer: Double
        public var sameShard: Double
        /// What crossing adds per packet: both sides' time beyond the same-shard time.
        public var hop: Double { producer + consumer - sameShard }
    }

    /// Runs `rounds` rounds of `batch` packets; `cores` are the CPUs of the two sides.
    public static func measure(rounds: Int, batch: Int = 512, cores: (Int, Int) = (0, 1)) -> Figures {
        let crossing = ShardHop(crosses: true)
        let staying = ShardHop(crosses: false)
        let turn = Atomic<Int>(0)  // even: the producer's turn; odd: the consumer's
        let producerNanoseconds = Atomic<Int>(0)
        let consumerNanoseconds = Atomic<Int>(0)
        let sameShardNanoseconds = Atomic<Int>(0)
        let finished = Atomic<Int>(0)
        let producer = Thread {
            pin(to: cores.0)
            // The same-shard figure first, on the producer's core, with no other side running.
            for _ in 0..<2 { runShardHop(staying, iterations: 0..<batch) }  // warm-up
            let sameStart = threadCPUNanoseconds()
            for _ in 0..<rounds { runShardHop(staying, iterations: 0..<batch) }
            sameShardNanoseconds.store(threadCPUNanoseconds() - sameStart, ordering: .relaxed)
            var spent = 0
            for round in 0..<rounds {
                while turn.load(ordering: .acquiring) != 2 * round {}
                let start = threadCPUNanoseconds()
                for _ in 0..<batch { crossing.source.deliver() }
                spent += threadCPUNanoseconds() - start
                turn.store(2 * round + 1, ordering: .releasing)
            }
            producerNanoseconds.store(spent, ordering: .relaxed)
            finished.add(1, ordering: .releasing)
        }
        let consumer = Thread {
            pin(to: cores.1)
            var spent = 0
            for round in 0..<rounds {
                while turn.load(ordering: .acquiring) != 2 * round + 1 {}
                let start = threadCPUNanoseconds()
                let ring = crossing.remote.links.values.first?.inbound as? PacketRing
                while let ring, ring.count > 0 { crossing.remote.drainLinks() }
                spent += threadCPUNanoseconds() - start
                turn.store(2 * round + 2, ordering: .releasing)
            }
            consumerNanoseconds.store(spent, ordering: .relaxed)
            finished.add(1, ordering: .releasing)
        }
        producer.start()
        consumer.start()
        while finished.load(ordering: .acquiring) < 2 { usleep(1000) }
        // Every packet crossed: none was dropped for a full ring, and the remote source got them all.
        let delivered = crossing.remote.sources[1]?.report.packets ?? 0
        precondition(delivered == UInt64(rounds * batch), "the remote source got \(delivered) of \(rounds * batch) packets")
        let packets = Double(rounds * batch)
        return Figures(
            producer: Double(producerNanoseconds.load(ordering: .relaxed)) / packets,
            consumer: Double(consumerNanoseconds.load(ordering: .relaxed)) / packets,
            sameShard: Double(sameShardNanoseconds.load(ordering: .relaxed)) / packets)
    }

    static func threadCPUNanoseconds() -> Int {
        var time = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
        return time.tv_sec * 1_000_000_000 + time.tv_nsec
    }

    /// Pins the calling thread to one CPU.
    static func pin(to cpu: Int) {
        let status = pkr_pin_thread(Int32(cpu))
        precondition(status == 0, "cannot pin a thread to CPU \(cpu): \(status)")
    }
}
