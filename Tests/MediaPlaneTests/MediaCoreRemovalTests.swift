import Testing

@testable import MediaPlane

/// Sources and sinks reach their transport through an `unowned` reference, so none may stay in
/// the core once its transport is gone: the next command or packet that touched it would trap.
@Suite struct MediaCoreRemovalTests {
    static let highLayer = Array("h".utf8)

    @Test func aSimulcastLayerStillWaitingForItsSSRCGoesWithItsTransport() {
        let h = CoreHarness()
        h.addPlainTransport(1)
        h.core.apply(
            .addSource(
                MediaSourceSpec(
                    id: 7, transportId: 1, ssrc: 0, isVideo: true, codec: "VP8", clockRate: 90_000, rid: Self.highLayer, ridExtensionId: 10)))
        h.addVideoSource(8, transport: 1, ssrc: 0x1000)
        #expect(h.core.transports[1]?.ridSources.count == 1)
        #expect(h.core.sources.count == 2)

        h.core.apply(.removeTransport(id: 1))
        #expect(h.core.sources.isEmpty)
        // What the control plane may still post for it is answered without touching the transport.
        h.core.apply(.removeSource(id: 7))
        h.advance(ms: 2_000)
        #expect(h.core.sources.isEmpty)
    }

    @Test func aSinkOnTheOutputSSRCOfAnotherReplacesIt() {
        let h = CoreHarness()
        h.addPlainTransport(1)
        h.addPlainTransport(2)
        h.addVideoSource(1, transport: 1, ssrc: 0x1000)
        h.core.apply(.addSink(MediaSinkSpec(id: 20, transportId: 2, outputSSRC: 0xBEEF, isVideo: true, clockRate: 90_000)))
        h.core.apply(.bind(sink: 20, source: 1))
        h.core.apply(.addSink(MediaSinkSpec(id: 21, transportId: 2, outputSSRC: 0xBEEF, isVideo: true, clockRate: 90_000)))
        #expect(h.core.sinks.keys.sorted() == [21])
        #expect(h.core.sources[1]?.sinks.isEmpty == true)

        h.core.apply(.removeTransport(id: 2))
        #expect(h.core.sinks.isEmpty)
    }

    @Test func aSinkOrSourceAddedAgainUnderItsIdReplacesTheFirst() {
        let h = CoreHarness()
        h.addPlainTransport(1)
        h.addPlainTransport(2)
        h.addVideoSource(1, transport: 1, ssrc: 0x1000)
        h.addVideoSource(1, transport: 2, ssrc: 0x2000)
        #expect(h.core.transports[1]?.sources.isEmpty == true)
        #expect(h.core.sources[1]?.transport === h.core.transports[2])

        h.core.apply(.addSink(MediaSinkSpec(id: 20, transportId: 1, outputSSRC: 0xA, isVideo: true, clockRate: 90_000)))
        h.core.apply(.addSink(MediaSinkSpec(id: 20, transportId: 2, outputSSRC: 0xB, isVideo: true, clockRate: 90_000)))
        #expect(h.core.transports[1]?.sinks.isEmpty == true)

        h.core.apply(.removeTransport(id: 1))
        h.core.apply(.removeTransport(id: 2))
        #expect(h.core.sources.isEmpty)
        #expect(h.core.sinks.isEmpty)
    }
}
