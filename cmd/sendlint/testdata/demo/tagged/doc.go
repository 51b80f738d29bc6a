// Package tagged is only built with the special tag.
package tagged
