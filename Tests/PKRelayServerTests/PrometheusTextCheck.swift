import Foundation

/// Reads /metrics with Python's prometheus_client text parser (installed by
/// `Tools/scripts/install-deps.sh test`), as a Prometheus server would, and returns what it
/// understood. The parser raises on text that breaks the exposition format; the script adds the
/// rules the parser lets pass: one HELP and one TYPE per family, families not split.
enum PrometheusTextCheck {
    struct Family: Decodable, Sendable {
        var name: String
        var type: String
        var help: String
        var samples: [Sample]
    }

    struct Sample: Decodable, Sendable {
        var name: String
        var labels: [String: String]
        var value: Double
    }

    struct Parsed: Decodable, Sendable {
        var families: [Family]
        var problems: [String]
    }

    static let script = #"""
        import json, sys
        from prometheus_client.parser import text_string_to_metric_families
        text = sys.stdin.read()
        problems = []
        seen_help, seen_type, order = {}, {}, []
        for line in text.splitlines():
            if line.startswith("# HELP ") or line.startswith("# TYPE "):
                kind, name = line[2:6], line.split(" ")[2]
                seen = seen_help if kind == "HELP" else seen_type
                if name in seen:
                    problems.append(f"second {kind} line for {name}")
                seen[name] = True
                if not order or order[-1] != name:
                    if name in order:
                        problems.append(f"family {name} is split")
                    order.append(name)
        families = []
        for family in text_string_to_metric_families(text):
            families.append({"name": family.name, "type": family.type, "help": family.documentation,
                             "samples": [{"name": s.name, "labels": s.labels, "value": s.value} for s in family.samples]})
        print(json.dumps({"families": families, "problems": problems}))
        """#

    /// Parses `text`; throws when the parser refused it.
    static func parse(_ text: String) async throws -> Parsed {
        let outcome = try await PythonProcess.run(["-c", script], input: Data(text.utf8))
        guard outcome.status == 0 else { throw ParseFailure(message: outcome.errors) }
        return try JSONDecoder().decode(Parsed.self, from: Data(outcome.output.utf8))
    }

    struct ParseFailure: Error, CustomStringConvertible {
        var message: String
        var description: String { "prometheus_client refused /metrics: \(message)" }
    }
}
