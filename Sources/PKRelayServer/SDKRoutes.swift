import Hummingbird

/// The web SDK at `/sdk/`: `pkrelay.js` (an ES module) and its declarations `pkrelay.d.ts`,
/// shipped with the relay so that the SDK a page imports always speaks the relay's protocol.
struct SDKRoutes: Sendable {
    func register<Context: RequestContext>(on router: Router<Context>) {
        let directory = StaticFile.directory("SDK")
        router.get("/sdk/{name}") { _, context -> Response in
            StaticFile.response(context.parameters.get("name") ?? "", in: directory, missing: "no such SDK file\n")
        }
    }
}
