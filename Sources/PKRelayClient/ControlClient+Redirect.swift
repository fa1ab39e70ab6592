public import Logging
public import Protocol

extension ControlClient {
    /// Connects to `url` and joins a room, following cluster redirects: when the relay answers
    /// 4030 (the room lives on another node), the connection is closed and the join is made again
    /// on the control URL the error names, at most `maximumRedirects` times.
    ///
    /// - Returns: The connected client (on the node that serves the room) and the join's result.
    /// - Throws: The last join's error (a 4030 too, after `maximumRedirects`), or a connection error.
    public static func connectAndJoin(
        to url: String, _ params: JoinRoomParams, maximumRedirects: Int = 2, timeout: Duration = .seconds(10),
        logger: Logger = Logger(label: "pkrelay.client")
    ) async throws -> (ControlClient, JoinRoomResult) {
        var target = url
        var redirects = 0
        while true {
            let client = try await connect(to: target, timeout: timeout, logger: logger)
            do {
                let result: JoinRoomResult = try await client.request("joinRoom", params)
                return (client, result)
            } catch ControlClientError.relay(let error) where error.code == .roomOnAnotherNode && redirects < maximumRedirects {
                await client.close()
                guard let next = error.data?.controlURL, !next.isEmpty else { throw ControlClientError.relay(error) }
                target = next
                redirects += 1
            } catch {
                await client.close()
                throw error
            }
        }
    }
}
