import Foundation

/// Checks real admin API answers against docs/openapi.yaml with Python's jsonschema and
/// openapi-schema-validator (installed by `Tools/scripts/install-deps.sh test`).
enum AdminOpenAPICheck {
    /// One observed answer: the documented path template, method, status and body.
    struct Observation: Codable, Sendable {
        var path: String
        var method: String
        var status: Int
        var body: String
    }

    static var specURL: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("docs/openapi.yaml")
    }

    static let script = #"""
        import json, sys, yaml
        from referencing import Registry, Resource
        from referencing.jsonschema import DRAFT202012
        from openapi_schema_validator import OAS31Validator
        spec = yaml.safe_load(open(sys.argv[1]))
        OAS31Validator.check_schema({"$defs": spec["components"]["schemas"]})
        registry = Registry().with_resource("urn:pkrelay", Resource.from_contents(spec, default_specification=DRAFT202012))
        def pointer(*parts):
            return "/".join(str(p).replace("~", "~0").replace("/", "~1") for p in parts)
        problems = []
        for item in json.load(sys.stdin):
            where = f'{item["method"].upper()} {item["path"]} {item["status"]}'
            operation = spec["paths"].get(item["path"], {}).get(item["method"])
            if operation is None:
                problems.append(f"{where}: not documented"); continue
            response = operation["responses"].get(str(item["status"]))
            if response is None:
                problems.append(f"{where}: status not documented"); continue
            base = ["paths", item["path"], item["method"], "responses", str(item["status"])]
            if "$ref" in response:
                base = response["$ref"].lstrip("#/").split("/")
            schema_ref = "urn:pkrelay#/" + pointer(*base, "content", "application/json", "schema")
            validator = OAS31Validator({"$ref": schema_ref}, registry=registry)
            body = json.loads(item["body"])
            for error in validator.iter_errors(body):
                problems.append(f"{where}: {error.message} at {list(error.absolute_path)}")
        print("\n".join(problems))
        sys.exit(1 if problems else 0)
        """#

    /// Validates every observation; returns the problems found (empty when all match).
    static func problems(_ observations: [Observation]) async throws -> [String] {
        let outcome = try await PythonProcess.run(["-c", script, specURL.path], input: try JSONEncoder().encode(observations))
        if outcome.status != 0 && outcome.output.isEmpty { return ["validator failed: \(outcome.errors)"] }
        return outcome.output.split(separator: "\n").map(String.init)
    }
}
