import Auth
import Foundation
import Protocol
import Testing

/// Minting and verifying tokens: every check the verifier makes, and the error code and message
/// an app developer sees when it fails.
struct TokenTests {
    let key = SigningKey(id: "main", secret: Array("0123456789abcdef0123456789abcdef".utf8))
    let now: Int64 = 1_800_000_000

    func mint(_ claims: TokenClaims, with signingKey: SigningKey? = nil) -> String {
        TokenMinter(key: signingKey ?? key).mint(claims)
    }

    var verifier: TokenVerifier { TokenVerifier(keys: [key], leewaySeconds: 5) }

    @Test func roundTripKeepsEveryClaim() throws {
        let claims = TokenClaims(sub: "alice", room: "r1", exp: now + 3600, nbf: now - 1, iat: now, grants: TokenGrantSet(publish: false, hidden: true))
        let verified = try verifier.verify(mint(claims), roomId: "r1", userId: "alice", nowSeconds: now).get()
        #expect(verified == claims)
        #expect(verified.effectiveGrants.canPublish == false)
        #expect(verified.effectiveGrants.canSubscribe == true)
        #expect(verified.effectiveGrants.isHidden == true)
        #expect(verified.effectiveGrants.isAdmin == false)
    }

    @Test func publishExpiryTravelsAsAGrant() throws {
        let claims = TokenClaims(sub: "anchor", room: "r1", exp: now + 3600, grants: TokenGrantSet(publishExpiresAt: now + 600))
        let token = mint(claims)
        let payload = String(token.split(separator: ".")[1])
        var padded = payload.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        while padded.count % 4 != 0 { padded += "=" }
        let data = try #require(Data(base64Encoded: padded))
        let json = String(decoding: data, as: UTF8.self)
        #expect(json.contains("\"publishExpiresAt\":\(now + 600)"))
        let verified = try verifier.verify(token, roomId: "r1", userId: "anchor", nowSeconds: now).get()
        #expect(verified.effectiveGrants.publishExpiresAt == now + 600)
        #expect(verified.effectiveGrants.canPublish)
    }

    @Test func headerNamesAlgorithmAndKeyId() throws {
        let token = mint(TokenClaims(sub: "a", room: "r", exp: now + 10))
        let header = String(token.split(separator: ".")[0])
        var padded = header.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        while padded.count % 4 != 0 { padded += "=" }
        let json = try #require(Data(base64Encoded: padded))
        let object = try #require(try JSONSerialization.jsonObject(with: json) as? [String: String])
        #expect(object == ["alg": "HS256", "typ": "JWT", "kid": "main"])
    }

    struct Failure: Sendable, CustomStringConvertible {
        let name: String
        let token: @Sendable (TokenTests) -> String
        let room: String
        let user: String
        let code: ErrorCode
        let messageContains: String
        var description: String { name }
    }

    static let failures: [Failure] = [
        Failure(
            name: "expired", token: { $0.mint(TokenClaims(sub: "alice", room: "r1", exp: $0.now - 60)) }, room: "r1", user: "alice", code: .tokenExpired,
            messageContains: "expired"),
        Failure(
            name: "not yet valid", token: { $0.mint(TokenClaims(sub: "alice", room: "r1", exp: $0.now + 600, nbf: $0.now + 60)) }, room: "r1", user: "alice",
            code: .tokenExpired, messageContains: "not valid before"),
        Failure(
            name: "other room", token: { $0.mint(TokenClaims(sub: "alice", room: "r2", exp: $0.now + 60)) }, room: "r1", user: "alice", code: .invalidToken,
            messageContains: "room 'r2'"),
        Failure(
            name: "other user", token: { $0.mint(TokenClaims(sub: "bob", room: "r1", exp: $0.now + 60)) }, room: "r1", user: "alice", code: .invalidToken,
            messageContains: "user 'bob'"),
        Failure(
            name: "unknown key id",
            token: {
                $0.mint(
                    TokenClaims(sub: "alice", room: "r1", exp: $0.now + 60),
                    with: SigningKey(id: "other", secret: Array("0123456789abcdef0123456789abcdef".utf8)))
            }, room: "r1", user: "alice", code: .invalidToken, messageContains: "key id 'other'"),
        Failure(
            name: "wrong secret",
            token: {
                $0.mint(
                    TokenClaims(sub: "alice", room: "r1", exp: $0.now + 60),
                    with: SigningKey(id: "main", secret: Array("ffffffffffffffffffffffffffffffff".utf8)))
            }, room: "r1", user: "alice", code: .invalidToken, messageContains: "signature"),
        Failure(name: "not a JWT", token: { _ in "hello" }, room: "r1", user: "alice", code: .invalidToken, messageContains: "three"),
        Failure(name: "empty", token: { _ in "" }, room: "r1", user: "alice", code: .invalidToken, messageContains: "three"),
        Failure(name: "garbage parts", token: { _ in "a.b.c" }, room: "r1", user: "alice", code: .invalidToken, messageContains: "header"),
        Failure(
            name: "alg none",
            token: { tests in
                let valid = tests.mint(TokenClaims(sub: "alice", room: "r1", exp: tests.now + 60)).split(separator: ".")
                let none = Data(#"{"alg":"none","kid":"main"}"#.utf8).base64EncodedString().replacingOccurrences(of: "=", with: "")
                return "\(none).\(valid[1])."
            }, room: "r1", user: "alice", code: .invalidToken, messageContains: "algorithm"),
        Failure(
            name: "tampered claims",
            token: { tests in
                let valid = tests.mint(TokenClaims(sub: "alice", room: "r1", exp: tests.now + 60)).split(separator: ".")
                let other = tests.mint(TokenClaims(sub: "alice", room: "r1", exp: tests.now + 99999)).split(separator: ".")
                return "\(valid[0]).\(other[1]).\(valid[2])"
            }, room: "r1", user: "alice", code: .invalidToken, messageContains: "signature"),
        Failure(
            name: "oversized", token: { _ in String(repeating: "a", count: 5000) }, room: "r1", user: "alice", code: .invalidToken, messageContains: "longer"),
    ]

    @Test(arguments: failures)
    func refusesWithCodeAndReason(_ failure: Failure) {
        let result = verifier.verify(failure.token(self), roomId: failure.room, userId: failure.user, nowSeconds: now)
        guard case .failure(let error) = result else {
            Issue.record("\(failure.name) was accepted")
            return
        }
        #expect(error.code == failure.code)
        #expect(error.message.contains(failure.messageContains), "message was: \(error.message)")
    }

    @Test func leewayAcceptsSmallClockDifferences() {
        let token = mint(TokenClaims(sub: "alice", room: "r1", exp: now - 3, nbf: now + 3))
        #expect((try? verifier.verify(token, roomId: "r1", userId: "alice", nowSeconds: now).get()) != nil)
    }

    @Test func developmentKeyIsLongEnoughAndNamedDev() {
        #expect(SigningKey.development.id == "dev")
        #expect(SigningKey.development.secret.count >= SigningKey.minimumSecretLength)
    }
}
