// The pion DTLS peer of Tests/SecureTransportTests/DTLSPionInteropTests.swift (see DTLSPionPeer).
// `make test-deps` builds it once so that the Go build cache is warm before the tests run.
package main

import (
	"context"
	"crypto/sha256"
	"crypto/tls"
	"encoding/hex"
	"fmt"
	"net"
	"os"
	"time"

	"github.com/pion/dtls/v2"
	"github.com/pion/dtls/v2/pkg/crypto/selfsign"
)

func main() {
	certificate, err := selfsign.GenerateSelfSigned()
	if err != nil {
		panic(err)
	}
	own := sha256.Sum256(certificate.Certificate[0])
	fmt.Printf("fingerprint: %s\n", hex.EncodeToString(own[:]))
	config := &dtls.Config{
		Certificates:           []tls.Certificate{certificate},
		InsecureSkipVerify:     true,
		ClientAuth:             dtls.RequireAnyClientCert,
		ExtendedMasterSecret:   dtls.RequireExtendedMasterSecret,
		SRTPProtectionProfiles: []dtls.SRTPProtectionProfile{dtls.SRTP_AEAD_AES_128_GCM, dtls.SRTP_AES128_CM_HMAC_SHA1_80},
		ConnectContextMaker: func() (context.Context, func()) {
			return context.WithTimeout(context.Background(), 10*time.Second)
		},
	}
	address, err := net.ResolveUDPAddr("udp", os.Args[2])
	if err != nil {
		panic(err)
	}
	var conn *dtls.Conn
	if os.Args[1] == "server" {
		listener, err := dtls.Listen("udp", address, config)
		if err != nil {
			panic(err)
		}
		fmt.Printf("listening: %d\n", listener.Addr().(*net.UDPAddr).Port)
		accepted, err := listener.Accept()
		if err != nil {
			panic(err)
		}
		conn = accepted.(*dtls.Conn)
	} else {
		conn, err = dtls.Dial("udp", address, config)
		if err != nil {
			panic(err)
		}
	}
	state := conn.ConnectionState()
	profile, _ := conn.SelectedSRTPProtectionProfile()
	material, err := state.ExportKeyingMaterial("EXTRACTOR-dtls_srtp", nil, 56)
	if err != nil {
		panic(err)
	}
	peer := sha256.Sum256(state.PeerCertificates[0])
	fmt.Printf("profile: %d\nmaterial: %s\npeer: %s\n", profile, hex.EncodeToString(material), hex.EncodeToString(peer[:]))
	conn.Close()
}
