import SecureTransport
import Testing

@Suite("SecureRandom")
struct SecureRandomTests {
    @Test("Returns the requested number of bytes", arguments: [0, 1, 16, 30, 1000])
    func count(count: Int) {
        #expect(SecureRandom.bytes(count).count == count)
    }

    @Test("Negative counts give no bytes")
    func negative() {
        #expect(SecureRandom.bytes(-1).isEmpty)
    }

    @Test("Consecutive draws differ and are not constant")
    func differs() {
        let first = SecureRandom.bytes(32)
        let second = SecureRandom.bytes(32)
        #expect(first != second)
        #expect(Set(first).count > 1)
    }
}
