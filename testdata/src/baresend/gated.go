package baresend

import (
	"context"
	"errors"
	"sync"
)

// A multipart uploader sends the parts of an object with a few uploads at
// a time. Each upload takes a buffer from a pool of threads buffers before
// it starts; one that fails reports on errc and keeps its buffer, one that
// succeeds gives it back. So at most threads uploads ever fail, and errc,
// as large as the pool, has room for every report even once the uploader
// has returned on the first.

type partUploader struct {
	threads  int
	partSize int
}

func (p *partUploader) uploadPart(ctx context.Context, n int, buf []byte) error {
	if n < 0 {
		return errors.New("bad part")
	}
	return ctx.Err()
}

func readPart(buf []byte, n int) int { return n % len(buf) }

// upload is the pool-gated uploader: quiet.
func (p *partUploader) upload(ctx context.Context, parts int) error {
	bufs := make(chan []byte, p.threads)
	for i := 0; i < p.threads; i++ {
		bufs <- make([]byte, p.partSize)
	}
	errc := make(chan error, p.threads)
	var wg sync.WaitGroup
	for n := 1; n <= parts; n++ {
		var buf []byte
		select {
		case buf = <-bufs:
		case err := <-errc:
			wg.Wait()
			return err
		}
		size := readPart(buf, n)
		wg.Add(1)
		go func(n int) {
			defer wg.Done()
			if err := p.uploadPart(ctx, n, buf[:size]); err != nil {
				errc <- err
				return
			}
			bufs <- buf
		}(n)
	}
	wg.Wait()
	select {
	case err := <-errc:
		return err
	default:
	}
	return nil
}

// uploadWidened sizes the pool with an int64 copy of the thread count and
// errc with the count itself: the same size.
func uploadWidened(ctx context.Context, p *partUploader, threads uint, parts int) error {
	n := int64(threads)
	bufs := make(chan []byte, n)
	for i := int64(0); i < n; i++ {
		bufs <- make([]byte, p.partSize)
	}
	errc := make(chan error, threads)
	for part := 1; part <= parts; part++ {
		buf := <-bufs
		go func() {
			if err := p.uploadPart(ctx, part, buf); err != nil {
				errc <- err
				return
			}
			bufs <- buf
		}()
		if len(errc) > 0 {
			return <-errc
		}
	}
	return nil
}

// uploadLimited takes a place of a semaphore instead of a buffer, and
// gives it back only when the part went up: quiet too.
func uploadLimited(ctx context.Context, p *partUploader, parts int) error {
	sem := make(chan struct{}, 4)
	errc := make(chan error, 4)
	for part := 1; part <= parts; part++ {
		select {
		case sem <- struct{}{}:
		case err := <-errc:
			return err
		}
		go func() {
			if err := p.uploadPart(ctx, part, nil); err != nil {
				errc <- err
				return
			}
			<-sem
		}()
	}
	return nil
}

// uploadDeferred gives its place back in a deferred call, on the failing
// path too: every failure frees a place for the next upload, so more
// uploads than errc holds can fail after the uploader returned.
func uploadDeferred(ctx context.Context, p *partUploader, parts int) error {
	sem := make(chan struct{}, 4)
	errc := make(chan error, 4)
	for part := 1; part <= parts; part++ {
		select {
		case sem <- struct{}{}:
		case err := <-errc:
			return err
		}
		go func() {
			defer func() { <-sem }()
			if err := p.uploadPart(ctx, part, nil); err != nil {
				errc <- err // want `send on errc \(chan error, cap 4\) can block forever: uploadDeferred can return`
			}
		}()
	}
	return nil
}

// uploadGivesBack gives the buffer back before it reports: a failing
// upload frees its buffer too.
func (p *partUploader) uploadGivesBack(ctx context.Context, parts int) error {
	bufs := make(chan []byte, p.threads)
	for i := 0; i < p.threads; i++ {
		bufs <- make([]byte, p.partSize)
	}
	errc := make(chan error, p.threads)
	for n := 1; n <= parts; n++ {
		var buf []byte
		select {
		case buf = <-bufs:
		case err := <-errc:
			return err
		}
		go func() {
			err := p.uploadPart(ctx, n, buf)
			bufs <- buf
			if err != nil {
				errc <- err // want `send on errc \(chan error, cap p\.threads\) can block forever: \(\*partUploader\)\.uploadGivesBack can return`
			}
		}()
	}
	return nil
}

// uploadSmallErrc has a pool of eight buffers but room for four reports.
func uploadSmallErrc(ctx context.Context, p *partUploader, parts int) error {
	bufs := make(chan []byte, 8)
	for range 8 {
		bufs <- make([]byte, p.partSize)
	}
	errc := make(chan error, 4)
	for n := 1; n <= parts; n++ {
		var buf []byte
		select {
		case buf = <-bufs:
		case err := <-errc:
			return err
		}
		go func() {
			if err := p.uploadPart(ctx, n, buf); err != nil {
				errc <- err // want `send on errc \(chan error, cap 4\) can block forever: uploadSmallErrc can return`
				return
			}
			bufs <- buf
		}()
	}
	return nil
}

// uploadTwoPerToken starts two uploads for each buffer it takes.
func (p *partUploader) uploadTwoPerToken(ctx context.Context, parts int) error {
	bufs := make(chan []byte, p.threads)
	for i := 0; i < p.threads; i++ {
		bufs <- make([]byte, p.partSize)
	}
	errc := make(chan error, p.threads)
	for n := 1; n <= parts; n++ {
		var buf []byte
		select {
		case buf = <-bufs:
		case err := <-errc:
			return err
		}
		for half := range 2 {
			go func() {
				if err := p.uploadPart(ctx, 2*n+half, buf); err != nil {
					errc <- err // want `send on errc \(chan error, cap p\.threads\) can block forever: \(\*partUploader\)\.uploadTwoPerToken can return`
					return
				}
				bufs <- buf
			}()
		}
	}
	return nil
}

// uploadRefilled fills its pool again after every part: the tokens have
// no bound.
func (p *partUploader) uploadRefilled(ctx context.Context, parts int) error {
	bufs := make(chan []byte, p.threads)
	for i := 0; i < p.threads; i++ {
		bufs <- make([]byte, p.partSize)
	}
	errc := make(chan error, p.threads)
	for n := 1; n <= parts; n++ {
		var buf []byte
		select {
		case buf = <-bufs:
		case err := <-errc:
			return err
		}
		go func() {
			if err := p.uploadPart(ctx, n, buf); err != nil {
				errc <- err // want `send on errc \(chan error, cap p\.threads\) can block forever: \(\*partUploader\)\.uploadRefilled can return`
			}
		}()
		select {
		case bufs <- make([]byte, p.partSize):
		default:
		}
	}
	return nil
}
