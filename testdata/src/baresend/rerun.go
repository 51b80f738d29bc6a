package baresend

import "time"

// A consensus node runs one loop per role, again and again, from its main
// loop; each role's loop returns when the role changes, and the main loop
// returns for good once shutdownCh is closed. Votes reach the node's
// verify channel from heartbeat goroutines that outlive the main loop: once
// it has returned and the buffer is full, a vote blocks for good.
type consensusNode struct {
	shutdownCh chan struct{}
	verifyCh   chan *verifyRound
	role       int
}

type verifyRound struct {
	votes  int
	quorum int
	notify chan *verifyRound
}

func newConsensusNode() *consensusNode {
	n := &consensusNode{shutdownCh: make(chan struct{}), verifyCh: make(chan *verifyRound, 64)}
	n.goFunc(n.run)
	return n
}

// goFunc starts f once on a goroutine of its own.
func (n *consensusNode) goFunc(f func()) {
	go func() {
		defer println("done")
		f()
	}()
}

func (n *consensusNode) Shutdown() { close(n.shutdownCh) }

func (n *consensusNode) run() {
	for {
		select {
		case <-n.shutdownCh:
			return
		default:
		}
		switch n.role {
		case 0:
			n.runFollower()
		default:
			n.runLeader()
		}
	}
}

func (n *consensusNode) runFollower() {
	for n.role == 0 {
		select {
		case v := <-n.verifyCh:
			println(v.votes)
		case <-time.After(time.Second):
			n.role = 1
		case <-n.shutdownCh:
			return
		}
	}
}

func (n *consensusNode) runLeader() {
	for n.role == 1 {
		select {
		case v := <-n.verifyCh:
			println(v.votes)
		case <-time.After(time.Minute):
			n.role = 0 // a lost lease: step down
		case <-n.shutdownCh:
			return
		}
	}
}

func (n *consensusNode) verify() *verifyRound {
	return &verifyRound{quorum: 3, notify: n.verifyCh}
}

func (v *verifyRound) vote() {
	v.votes++
	if v.votes >= v.quorum {
		v.notify <- v // want `send on v\.notify \(chan \*verifyRound, cap 64\) can block forever: its receiver \(\*consensusNode\)\.run(Follower|Leader) runs only from \(\*consensusNode\)\.run, which returns for good on its stop channel`
	}
}

func (n *consensusNode) heartbeat(v *verifyRound) {
	for {
		time.Sleep(time.Second)
		v.vote()
	}
}

// A worker pool's main loop also returns when a job fails, on its own
// schedule: the role loops may be gone while the node is still meant to
// run, and the pass cannot tell whether anything runs them again.
type jobNode struct {
	stopCh chan struct{}
	jobs   chan func() error
}

func newJobNode() *jobNode {
	n := &jobNode{stopCh: make(chan struct{}), jobs: make(chan func() error, 8)}
	n.goFunc(n.run)
	return n
}

func (n *jobNode) goFunc(f func()) { go f() }

func (n *jobNode) Stop() { close(n.stopCh) }

func (n *jobNode) run() {
	for {
		select {
		case <-n.stopCh:
			return
		default:
		}
		if err := n.runBatch(); err != nil {
			return
		}
	}
}

func (n *jobNode) runBatch() error {
	for {
		select {
		case j := <-n.jobs:
			if err := j(); err != nil {
				return err
			}
		case <-time.After(time.Second):
			return nil
		}
	}
}

func (n *jobNode) submitAudit(j func() error) {
	n.jobs <- j // want `\[audit: its receiver \(\*jobNode\)\.runBatch can stop waiting, but may run again for the same channel\]`
}
