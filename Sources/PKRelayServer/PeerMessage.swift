import Foundation
import RoomEngine

/// One message on a node-to-node connection (docs/CLUSTER.md, "Between nodes"). On the wire
/// it is a JSON object with `kind`, the request `id` for requests and replies, and `body`.
enum PeerMessage: Sendable, Hashable {
    /// First message each way on a connection: who speaks, in which version of this protocol,
    /// and its end of the media pipe.
    case hello(PeerHello)
    /// Once a second each way; a connection silent for ``PeerConnections/Timings/silenceMs`` is dropped.
    case ping
    /// A question the other node answers with a ``reply(id:_:)`` of the same id.
    case request(id: Int, PeerRequest)
    case reply(id: Int, PeerReply)
    /// What the nodes' room engines tell each other, one way.
    case notice(NodeNotice)

    /// The version of this protocol. A node refuses a hello of another version: nodes of one
    /// cluster run the same release.
    static let version = 3
}

extension PeerMessage: Codable {
    private enum Kind: String, Codable { case hello, ping, request, reply, notice }
    private enum CodingKeys: String, CodingKey { case kind, id, body }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        switch try container.decode(Kind.self, forKey: .kind) {
        case .hello: self = .hello(try container.decode(PeerHello.self, forKey: .body))
        case .ping: self = .ping
        case .request: self = .request(id: try container.decode(Int.self, forKey: .id), try container.decode(PeerRequest.self, forKey: .body))
        case .reply: self = .reply(id: try container.decode(Int.self, forKey: .id), try container.decode(PeerReply.self, forKey: .body))
        case .notice: self = .notice(try container.decode(NodeNotice.self, forKey: .body))
        }
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        switch self {
        case .hello(let hello):
            try container.encode(Kind.hello, forKey: .kind)
            try container.encode(hello, forKey: .body)
        case .ping:
            try container.encode(Kind.ping, forKey: .kind)
        case .request(let id, let request):
            try container.encode(Kind.request, forKey: .kind)
            try container.encode(id, forKey: .id)
            try container.encode(request, forKey: .body)
        case .reply(let id, let reply):
            try container.encode(Kind.reply, forKey: .kind)
            try container.encode(id, forKey: .id)
            try container.encode(reply, forKey: .body)
        case .notice(let notice):
            try container.encode(Kind.notice, forKey: .kind)
            try container.encode(notice, forKey: .body)
        }
    }
}
