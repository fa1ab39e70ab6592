import Testing

@testable import MediaPlane

/// Placement and remote copies across shards, as commands posted per shard.
@Suite struct ShardRoutingTests {
    /// Commands as short strings, per shard, so expectations read like a log.
    static func lines(_ posts: ShardRouting.Posts) -> [String] {
        posts.map { shard, command in
            let text: String
            switch command {
            case .addSource(let spec): text = "addSource \(spec.id)"
            case .removeSource(let id): text = "removeSource \(id)"
            case .addSink(let spec): text = "addSink \(spec.id)"
            case .removeSink(let id): text = "removeSink \(id)"
            case .bind(let sink, let source): text = "bind \(sink)<-\(source)"
            case .switchSource(let sink, let source): text = "switch \(sink)<-\(source)"
            case .unbind(let sink): text = "unbind \(sink)"
            case .addRemoteSource(let spec, let peer): text = "addRemoteSource \(spec.id) from \(peer)"
            case .addPipeOutlet(let source, let peer): text = "addPipeOutlet \(source) to \(peer)"
            case .removePipeOutlet(let source, let peer): text = "removePipeOutlet \(source) to \(peer)"
            case .addLink(let handoff): text = "addLink \(handoff.link.peer)"
            case .removeLink(let peer): text = "removeLink \(peer)"
            default: text = "\(command)"
            }
            return "\(shard): \(text)"
        }
    }

    static func video(_ id: UInt32, transport: Int) -> MediaSourceSpec {
        MediaSourceSpec(id: id, transportId: transport, ssrc: id, isVideo: true, codec: "VP8", clockRate: 90_000)
    }

    static func sink(_ id: UInt32, transport: Int) -> MediaSinkSpec {
        MediaSinkSpec(id: id, transportId: transport, outputSSRC: id, isVideo: true, clockRate: 90_000)
    }

    @Test func roomsGoToTheLeastLoadedShardAndKeepIt() {
        var routing = ShardRouting(shardCount: 3)
        #expect(routing.placeTransport(1, group: "r1") == 0)
        #expect(routing.placeTransport(2, group: "r2") == 1)
        #expect(routing.placeTransport(3, group: "r1") == 0)
        #expect(routing.placeTransport(4, group: "r3") == 2)
        #expect(routing.placeTransport(5, group: nil) == 1)
        #expect(routing.transportsPerShard == [2, 2, 1])
        // A group is forgotten with its last transport.
        _ = routing.transportClosed(4)
        #expect(routing.groups["r3"] == nil)
        #expect(routing.placeTransport(7, group: "r3") == 2)
    }

    /// A WebRTC transport opened before its session joined is placed at once (its port is in the
    /// client's SDP): a room without a shard adopts it, a room already elsewhere leaves it be.
    @Test func aTransportPlacedBeforeItsRoomGivesTheRoomItsShard() {
        var routing = ShardRouting(shardCount: 2)
        #expect(routing.placeTransport(1, group: "busy") == 0)
        #expect(routing.placeTransport(2, group: nil) == 1)
        let adopted = routing.adopt(2, group: "new")
        #expect(adopted)
        #expect(routing.placeTransport(3, group: "new") == 1, "the room follows its first transport")
        let adoptedTwice = routing.adopt(2, group: "other")
        #expect(!adoptedTwice, "a transport joins one group")
        #expect(routing.placeTransport(4, group: nil) == 0)
        let adoptedElsewhere = routing.adopt(4, group: "new")
        #expect(!adoptedElsewhere, "the room lives on shard 1; transport 4 stays on 0")
        #expect(routing.shard(ofTransport: 4) == 0)
        // The group counts its adopted transport: it keeps its shard while transport 3 is gone.
        _ = routing.transportClosed(3)
        #expect(routing.groups["new"]?.shard == 1 && routing.groups["new"]?.transports == 1)
        _ = routing.transportClosed(2)
        #expect(routing.groups["new"] == nil)
    }

    /// A room's receiving transports stay on its shard until it holds `spreadAfter` of the
    /// room's transports; then each goes to the least loaded shard (the room's on a tie), while
    /// publishing transports and small rooms stay put.
    @Test func aRoomPastItsThresholdSpreadsItsReceivingTransports() {
        var routing = ShardRouting(shardCount: 3, spreadAfter: 2)
        #expect(routing.placeTransport(1, group: "big") == 0, "the publisher's transport gives the room its shard")
        #expect(routing.placeTransport(2, group: "big", receiving: true) == 0, "under the threshold")
        #expect(routing.placeTransport(3, group: "big", receiving: true) == 1)
        #expect(routing.placeTransport(4, group: "big", receiving: true) == 2)
        #expect(routing.placeTransport(5, group: "big", receiving: true) == 1)
        #expect(routing.placeTransport(6, group: "big", receiving: true) == 2)
        #expect(routing.placeTransport(7, group: "big", receiving: true) == 0, "a tie keeps the room's shard")
        #expect(routing.placeTransport(8, group: "big") == 0, "a transport that may publish stays with the room")
        #expect(routing.transportsPerShard == [4, 2, 2])
        #expect(routing.groups["big"]?.transports == 8 && routing.groups["big"]?.onShard == 4)
        // A small room is not spread, whatever is busy.
        #expect(routing.placeTransport(9, group: "small") == 1)
        #expect(routing.placeTransport(10, group: "small", receiving: true) == 1)
        // Spilled transports closing leave the room's count on its shard as it was; only one
        // there closing lowers it.
        _ = routing.transportClosed(3)
        _ = routing.transportClosed(5)
        #expect(routing.groups["big"]?.shard == 0 && routing.groups["big"]?.transports == 6 && routing.groups["big"]?.onShard == 4)
        _ = routing.transportClosed(7)
        #expect(routing.groups["big"]?.onShard == 3)
        #expect(routing.placeTransport(11, group: "big", receiving: true) == 1, "still at the threshold: the least loaded shard")
        for id in [1, 2, 4, 6, 8, 11] { _ = routing.transportClosed(id) }
        #expect(routing.groups["big"] == nil)
    }

    /// Without a threshold (and on one shard) a room is never spread.
    @Test func withoutAThresholdARoomKeepsOneShard() {
        var routing = ShardRouting(shardCount: 2)
        _ = routing.placeTransport(1, group: "r")
        for id in 2...5 { #expect(routing.placeTransport(id, group: "r", receiving: true) == 0) }
        var single = ShardRouting(shardCount: 1, spreadAfter: 0)
        for id in 1...3 { #expect(single.placeTransport(id, group: "r", receiving: true) == 0) }
    }

    @Test func aSubscriberOnTheSourcesShardNeedsNoPipe() {
        var routing = ShardRouting(shardCount: 2)
        _ = routing.placeTransport(1, group: "r1")
        _ = routing.placeTransport(2, group: "r1")
        #expect(Self.lines(routing.addSource(Self.video(10, transport: 1))) == ["0: addSource 10"])
        #expect(Self.lines(routing.addSink(Self.sink(20, transport: 2))) == ["0: addSink 20"])
        #expect(Self.lines(routing.bind(sink: 20, source: 10, switching: false)) == ["0: bind 20<-10"])
        #expect(routing.copies.isEmpty && routing.linkedPairs.isEmpty)
    }

    @Test func subscribersOnAnotherShardShareOneRemoteCopy() {
        var routing = ShardRouting(shardCount: 2)
        _ = routing.placeTransport(1, group: "r1")
        _ = routing.placeTransport(2, group: "r2")
        _ = routing.placeTransport(3, group: "r2")
        _ = routing.addSource(Self.video(10, transport: 1))
        _ = routing.addSink(Self.sink(20, transport: 2))
        _ = routing.addSink(Self.sink(21, transport: 3))
        #expect(
            Self.lines(routing.bind(sink: 20, source: 10, switching: false)) == [
                "0: addLink 1", "1: addLink 0", "1: addRemoteSource 10 from 0", "0: addPipeOutlet 10 to 1", "1: bind 20<-10",
            ])
        #expect(Self.lines(routing.bind(sink: 21, source: 10, switching: false)) == ["1: bind 21<-10"])
        #expect(routing.copies[10] == [1: 2])
        #expect(Self.lines(routing.unbind(sink: 20)) == ["1: unbind 20"])
        // The last subscriber there lets the copy go, and with it the link and its rings.
        #expect(
            Self.lines(routing.removeSink(21)) == [
                "1: removeSink 21", "0: removePipeOutlet 10 to 1", "1: removeSource 10", "0: removeLink 1", "1: removeLink 0",
            ])
        #expect(routing.copies.isEmpty && routing.linkedPairs.isEmpty)
        // The next one makes a new link.
        #expect(
            Self.lines(routing.bind(sink: 20, source: 10, switching: false)) == [
                "0: addLink 1", "1: addLink 0", "1: addRemoteSource 10 from 0", "0: addPipeOutlet 10 to 1", "1: bind 20<-10",
            ])
    }

    /// A link between two shards carries every copy either way between them: it goes when the
    /// last of them goes, however that happens (unbind, source removed, transport closed).
    @Test func aLinkLastsAsLongAsSomeCopyCrossesIt() {
        var routing = ShardRouting(shardCount: 3)
        _ = routing.placeTransport(1, group: "r1")
        _ = routing.placeTransport(2, group: "r2")
        _ = routing.placeTransport(3, group: "r3")
        _ = routing.addSource(Self.video(10, transport: 1))
        _ = routing.addSource(Self.video(11, transport: 2))
        _ = routing.addSink(Self.sink(20, transport: 2))
        _ = routing.addSink(Self.sink(21, transport: 1))
        _ = routing.addSink(Self.sink(30, transport: 3))
        // Shard 1 watches shard 0's source and shard 0 shard 1's: one link, used both ways.
        _ = routing.bind(sink: 20, source: 10, switching: false)
        #expect(
            Self.lines(routing.bind(sink: 21, source: 11, switching: false)) == [
                "0: addRemoteSource 11 from 1", "1: addPipeOutlet 11 to 0", "0: bind 21<-11",
            ])
        _ = routing.bind(sink: 30, source: 10, switching: false)
        #expect(routing.linkedPairs == [[0, 1], [0, 2]])
        #expect(Self.lines(routing.unbind(sink: 20)) == ["1: unbind 20", "0: removePipeOutlet 10 to 1", "1: removeSource 10"])
        #expect(routing.linkedPairs == [[0, 1], [0, 2]], "shard 0 still watches shard 1")
        #expect(Self.lines(routing.removeSource(11)) == ["1: removeSource 11", "0: removeSource 11", "0: removeLink 1", "1: removeLink 0"])
        #expect(Self.lines(routing.transportClosed(1)) == ["0: removeSource 10", "2: removeSource 10", "0: removeLink 2", "2: removeLink 0"])
        #expect(routing.linkedPairs.isEmpty && routing.copies.isEmpty)
    }

    @Test func aLayerSwitchKeepsTheLayerItLeavesUntilTheNextChange() {
        var routing = ShardRouting(shardCount: 2)
        _ = routing.placeTransport(1, group: "r1")
        _ = routing.placeTransport(2, group: "r2")
        _ = routing.addSource(Self.video(10, transport: 1))
        _ = routing.addSource(Self.video(11, transport: 1))
        _ = routing.addSink(Self.sink(20, transport: 2))
        _ = routing.bind(sink: 20, source: 10, switching: false)
        #expect(
            Self.lines(routing.bind(sink: 20, source: 11, switching: true)) == [
                "1: addRemoteSource 11 from 0", "0: addPipeOutlet 11 to 1", "1: switch 20<-11",
            ])
        #expect(routing.copies[10] == [1: 1] && routing.copies[11] == [1: 1])
        #expect(Self.lines(routing.bind(sink: 20, source: 10, switching: true)) == ["1: switch 20<-10"])
        #expect(Self.lines(routing.bind(sink: 20, source: 10, switching: false)) == ["1: bind 20<-10", "0: removePipeOutlet 11 to 1", "1: removeSource 11"])
    }

    @Test func removingASourceOrItsTransportRemovesEveryCopy() {
        var routing = ShardRouting(shardCount: 3)
        _ = routing.placeTransport(1, group: "r1")
        _ = routing.placeTransport(2, group: "r2")
        _ = routing.placeTransport(3, group: "r3")
        _ = routing.addSource(Self.video(10, transport: 1))
        _ = routing.addSink(Self.sink(20, transport: 2))
        _ = routing.addSink(Self.sink(30, transport: 3))
        _ = routing.bind(sink: 20, source: 10, switching: false)
        _ = routing.bind(sink: 30, source: 10, switching: false)
        #expect(
            Self.lines(routing.transportClosed(1)) == [
                "0: removeSource 10", "1: removeSource 10", "2: removeSource 10", "0: removeLink 1", "1: removeLink 0", "0: removeLink 2", "2: removeLink 0",
            ])
        #expect(routing.copies.isEmpty)
        // The sinks hold nothing any more: unbinding posts no copy removal.
        #expect(Self.lines(routing.unbind(sink: 20)) == ["1: unbind 20"])
    }
}
