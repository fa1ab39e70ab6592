import Foundation
import Logging
import Synchronization
import Testing

@testable import PKRelayServer

/// The JSON log lines an operator's pipeline reads: one object per line, with the handler's own
/// time, level, label and message whatever the metadata says.
@Suite struct JSONLogHandlerTests {
    final class Lines: Sendable {
        let lines = Mutex<[String]>([])
        func append(_ line: String) { lines.withLock { $0.append(line) } }
        var all: [String] { lines.withLock { $0 } }
    }

    static let moment = Date(timeIntervalSince1970: 1_700_000_000.25)

    func logger(writingTo lines: Lines) -> Logger {
        Logger(label: "pkrelay.test") { label in JSONLogHandler(label: label, now: { Self.moment }, write: { lines.append($0) }) }
    }

    func object(_ line: String) throws -> [String: String] {
        #expect(line.hasSuffix("\n") && line.dropLast().contains("\n") == false, "one line per event: \(line)")
        return try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: String])
    }

    @Test func aLineCarriesTimeLevelLabelMessageAndMetadata() throws {
        let lines = Lines()
        logger(writingTo: lines).info("room created", metadata: ["room": "r1", "note": "quote \" and\nnewline"])
        let fields = try object(try #require(lines.all.first))
        #expect(fields["time"] == "2023-11-14T22:13:20.250Z")
        #expect(fields["level"] == "info" && fields["label"] == "pkrelay.test" && fields["message"] == "room created")
        #expect(fields["room"] == "r1" && fields["note"] == "quote \" and\nnewline")
    }

    @Test func metadataNeverReplacesTheHandlersOwnFields() throws {
        let lines = Lines()
        var logger = logger(writingTo: lines)
        logger[metadataKey: "level"] = "debug"
        logger.warning("disk almost full", metadata: ["time": "yesterday", "message": "other", "label": "x"])
        let fields = try object(try #require(lines.all.first))
        #expect(fields["time"] == "2023-11-14T22:13:20.250Z" && fields["level"] == "warning")
        #expect(fields["message"] == "disk almost full" && fields["label"] == "pkrelay.test")
        #expect(fields["metadata.time"] == "yesterday" && fields["metadata.level"] == "debug")
        #expect(fields["metadata.message"] == "other" && fields["metadata.label"] == "x")
    }

    @Test func linesBelowTheLevelAreNotWritten() {
        let lines = Lines()
        var logger = logger(writingTo: lines)
        logger.logLevel = .notice
        logger.info("quiet")
        logger.notice("loud")
        #expect(lines.all.count == 1)
    }
}
