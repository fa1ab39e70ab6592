import Glibc
import HotPathWorkloads
import SecureTransport

// Runs a fixed media workload once, for instruction counting under callgrind, which is
// repeatable on a busy machine where wall-clock figures are not:
//
//   ShardInstructions SHARDS SUBSCRIBERS PACKETS [plain|gcm|cm] [srtp-in]
//
// Two runs that differ only in PACKETS differ only in per-packet work, so
// (Ir(2N) - Ir(N)) / (N * SUBSCRIBERS) is the instruction count per egress packet, setup excluded.
// With `srtp-in` the publisher sends SRTP of the subscribers' profile, as the bench kit's does, and
// the core opens each packet; the workload seals it first, outside the core: collect with
// `--toggle-collect='*handleDatagram*' --toggle-collect='*flushAll*'` to count the core alone.
let arguments = CommandLine.arguments.dropFirst().map { $0 }
guard arguments.count >= 3, let shards = Int(arguments[0]), let subscribers = Int(arguments[1]), let packets = Int(arguments[2]) else {
    print("usage: ShardInstructions SHARDS(1|2) SUBSCRIBERS PACKETS [plain|gcm|cm] [srtp-in]")
    exit(2)
}
let profile: SRTPProfile? =
    switch arguments.count > 3 ? arguments[3] : "plain" {
    case "gcm": .aeadAES128GCM
    case "cm": .aesCM128HMACSHA1_80
    default: nil
    }
let split = ShardSplit(
    subscribers: subscribers, shards: shards, profile: profile, publisherProfile: arguments.count > 4 && arguments[4] == "srtp-in" ? profile : nil)
let before = split.egressDatagrams
runShardSplit(split, iterations: 0..<packets)
print("shards \(shards), subscribers \(subscribers), packets \(packets): \(split.egressDatagrams - before) datagrams out")
