import Protocol

/// A request as written on the wire: `{"id": n, "method": name, "params": {...}}`.
struct OutboundRequest<Params: Encodable>: Encodable {
    var id: Int64
    var method: String
    var params: Params
}
