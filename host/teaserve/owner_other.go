//go:build !unix

package teaserve

import (
	"errors"
	"net"
)

func ownerOnly(string, bool) error {
	return errors.New("teaserve: the local socket needs a unix system")
}

func samePeer(net.Conn) bool { return false }
