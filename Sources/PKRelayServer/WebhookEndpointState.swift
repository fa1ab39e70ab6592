/// The queues of one webhook endpoint: events per room in order, the rooms ready to be
/// delivered to, and the rooms being delivered to now.
struct WebhookEndpointState: Sendable {
    var pending: [String: [WebhookEvent]] = [:]
    var ready: [String] = []
    var active: Set<String> = []
    var stopped = false
    var stats = WebhookStats()
}
