extension DTLSSRTPKeys {
    /// A session that protects the packets this side sends.
    public func makeSenderSession() throws(SRTPSessionError) -> SRTPSession {
        try SRTPSession(profile: profile, keyingMaterial: localKeyingMaterial, direction: .sender)
    }

    /// A session that unprotects the packets the peer sends.
    ///
    /// - Parameter replayWindowSize: Packets remembered for replay detection.
    public func makeReceiverSession(replayWindowSize: Int = 1024) throws(SRTPSessionError) -> SRTPSession {
        try SRTPSession(
            profile: profile, keyingMaterial: remoteKeyingMaterial, direction: .receiver,
            replayWindowSize: replayWindowSize)
    }
}
