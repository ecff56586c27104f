// Package runtime holds tenure's duration grammar and the min-runtime resolver.
//
// (the runtime package owner writes this manual)
package runtime
