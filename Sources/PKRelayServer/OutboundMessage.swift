import Protocol

/// A response as written on the wire: `{"id": ..., "result": ...}` or `{"id": ..., "error": {...}}`.
struct OutboundResponse<Result: Encodable>: Encodable {
    var id: RequestID?
    var result: Result?
    var error: RelayError?

    enum CodingKeys: String, CodingKey {
        case id
        case result
        case error
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        if let id { try container.encode(id, forKey: .id) } else { try container.encodeNil(forKey: .id) }
        if let error {
            try container.encode(error, forKey: .error)
        } else {
            try container.encode(result, forKey: .result)
        }
    }
}
