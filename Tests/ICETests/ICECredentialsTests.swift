import ICE
import Testing

@Suite("ICE credentials")
struct ICECredentialsTests {
    @Test("random credentials are long enough, made of ice-chars, and differ every time")
    func random() {
        let made = (0..<50).map { _ in ICECredentials.random() }
        for credentials in made {
            #expect(credentials.ufrag.utf8.count == 8)
            #expect(credentials.password.utf8.count == 24)
            #expect(credentials.isValid)
        }
        #expect(Set(made.map(\.ufrag)).count == 50)
        #expect(Set(made.map(\.password)).count == 50)
    }

    @Test("requested lengths are honoured at the minimums")
    func minimumLengths() {
        let short = ICECredentials.random(ufragLength: 4, passwordLength: 22)
        #expect(short.ufrag.utf8.count == 4)
        #expect(short.password.utf8.count == 22)
        #expect(short.isValid)
    }

    @Test("random characters cover the whole ice-char set")
    func alphabetCoverage() {
        var seen = Set<Character>()
        for _ in 0..<40 { seen.formUnion(ICECredentials.random(passwordLength: 256).password) }
        #expect(seen.count == 64)
    }

    @Test(
        "credentials from SDP are checked for length and characters",
        arguments: [
            ("abcd", "0123456789012345678901", true),
            ("abc", "0123456789012345678901", false),
            ("abcd", "012345678901234567890", false),
            ("ab-d", "0123456789012345678901", false),
            ("abcd", "0123456789 12345678901", false),
            ("a+/Z", "++++////++++////++++//", true),
            (String(repeating: "u", count: 257), "0123456789012345678901", false),
        ])
    func validity(ufrag: String, password: String, valid: Bool) {
        #expect(ICECredentials(ufrag: ufrag, password: password).isValid == valid)
    }
}
