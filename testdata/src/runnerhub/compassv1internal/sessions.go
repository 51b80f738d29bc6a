// Package compassv1internal holds the messages of the hub's internal API: the
// Sessions stream between the hub and each Runner, and the client-facing
// session commands and signals. The hub's send-queue fix changes no message,
// so runnerhubfixed and runnerhubregress import this package too.
package compassv1internal

// CommandOp is what a session command asks the Runner to do.
type CommandOp int32

const (
	CommandOp_START  CommandOp = 1
	CommandOp_STOP   CommandOp = 2
	CommandOp_RELOAD CommandOp = 3
	CommandOp_STATUS CommandOp = 4
)

// SessionsResponse is one frame from the hub to a Runner on the Sessions
// stream. Exactly one of Deliver, Command and Signal is set.
type SessionsResponse struct {
	RequestId string
	Deliver   *Deliver
	Command   *SessionCommand
	Signal    *Signal
}

func (x *SessionsResponse) GetRequestId() string {
	if x != nil {
		return x.RequestId
	}
	return ""
}

// Deliver carries one notification to a session.
type Deliver struct {
	SessionId string
	Seq       uint64
	Payload   []byte
}

// SessionCommand asks the Runner to act on one of its sessions.
type SessionCommand struct {
	SessionId string
	Op        CommandOp
}

// Signal tells the Runner that a versioned resource changed.
type Signal struct {
	SecretsVersion int64
	ConfigVersion  int64
}

// AgentFrame is one frame from a Runner to the hub. Exactly one field is set.
type AgentFrame struct {
	Hello           *Hello
	Result          *SessionsRequest
	DeliveryAck     *DeliveryAck
	DeliveryRefusal *DeliveryRefusal
}

func (x *AgentFrame) GetHello() *Hello {
	if x != nil {
		return x.Hello
	}
	return nil
}

// Hello opens a Sessions stream.
type Hello struct {
	RunnerId string
}

// SessionsRequest is the Runner's result for one session command.
type SessionsRequest struct {
	RequestId string
	SessionId string
	State     string
	Error     string
}

func (x *SessionsRequest) GetRequestId() string {
	if x != nil {
		return x.RequestId
	}
	return ""
}

// DeliveryAck confirms that a session received a deliver.
type DeliveryAck struct {
	RequestId string
	SessionId string
	Seq       uint64
}

// DeliveryRefusal says that the Runner could not hand a deliver to its
// session.
type DeliveryRefusal struct {
	RequestId string
	Reason    string
}

// StartSessionRequest asks the hub to start a session on a Runner.
type StartSessionRequest struct {
	RunnerId  string
	SessionId string
	RequestId string
}

type StartSessionResponse struct {
	State string
}

// StopSessionRequest asks the hub to stop a session.
type StopSessionRequest struct {
	SessionId string
	RequestId string
}

type StopSessionResponse struct {
	State string
}

// SignalSecretsVersionRequest announces a new version of the secrets.
type SignalSecretsVersionRequest struct {
	Version int64
}

type SignalSecretsVersionResponse struct{}

// SignalConfigVersionRequest announces a new version of the config.
type SignalConfigVersionRequest struct {
	Version int64
}

type SignalConfigVersionResponse struct{}
