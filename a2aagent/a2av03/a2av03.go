package a2av03

import (
	"net/http"

	"github.com/a2aproject/a2a-go/v2/a2a"
	"github.com/a2aproject/a2a-go/v2/a2acompat/a2av0"
	"github.com/a2aproject/a2a-go/v2/a2asrv"

	"github.com/foldagent/foldagent/a2aagent"
)

// NewHandler returns the 0.3 endpoint of h's agent, to mount at its own
// path: JSON-RPC 0.3 at the mount point (POST), and the agent card in the
// form 0.3 clients read (url, preferredTransport, protocolVersion "0.3")
// at a2aagent.CardPath below it.
func NewHandler(h *a2aagent.Handler) http.Handler {
	rpc := h.Protect(a2av0.NewJSONRPCHandler(h.RequestHandler()))
	card := h.Screen(http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		c := h.CardFor(req)
		base := c.SupportedInterfaces[0].URL
		c.SupportedInterfaces = []*a2a.AgentInterface{{URL: base, ProtocolBinding: a2a.TransportProtocolJSONRPC, ProtocolVersion: a2av0.Version}}
		producer, ok := a2av0.NewStaticAgentCardProducer(c).(a2asrv.AgentCardJSONProducer)
		if !ok {
			http.Error(w, "Internal Server Error", http.StatusInternalServerError)
			return
		}
		b, err := producer.CardJSON(req.Context())
		if err != nil {
			http.Error(w, "Internal Server Error", http.StatusInternalServerError)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write(b)
	}))
	return http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		if req.Method == http.MethodGet && req.URL.Path == a2aagent.CardPath {
			card.ServeHTTP(w, req)
			return
		}
		rpc.ServeHTTP(w, req)
	})
}
