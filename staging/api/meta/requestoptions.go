package meta

import (
	"net/url"
	"strconv"
)

// ListOptions are the query parameters of a list or watch.
type ListOptions struct {
	LabelSelector       string
	FieldSelector       string
	ResourceVersion     string
	Limit               int64
	Continue            string
	Watch               bool
	AllowWatchBookmarks bool
	// TimeoutSeconds bounds a list or watch on the server; 0 leaves it unset.
	TimeoutSeconds int64
	// SendInitialEvents, on a watch, asks for the current objects as ADDED
	// events ended by a BOOKMARK annotated InitialEventsEndAnnotation (the
	// watch-list protocol); it needs ResourceVersionMatch NotOlderThan and
	// AllowWatchBookmarks.
	SendInitialEvents *bool
	// ResourceVersionMatch says how ResourceVersion binds: NotOlderThan or Exact.
	ResourceVersionMatch string
}

// InitialEventsEndAnnotation marks the BOOKMARK that ends the initial
// events of a watch with SendInitialEvents.
const InitialEventsEndAnnotation = "platform.io/initial-events-end"

// Query renders the options as URL query parameters.
func (o ListOptions) Query() url.Values {
	q := url.Values{}
	set := func(k, v string) {
		if v != "" {
			q.Set(k, v)
		}
	}
	set("labelSelector", o.LabelSelector)
	set("fieldSelector", o.FieldSelector)
	set("resourceVersion", o.ResourceVersion)
	set("continue", o.Continue)
	if o.Limit > 0 {
		q.Set("limit", strconv.FormatInt(o.Limit, 10))
	}
	if o.Watch {
		q.Set("watch", "true")
	}
	if o.AllowWatchBookmarks {
		q.Set("allowWatchBookmarks", "true")
	}
	if o.TimeoutSeconds > 0 {
		q.Set("timeoutSeconds", strconv.FormatInt(o.TimeoutSeconds, 10))
	}
	if o.SendInitialEvents != nil {
		q.Set("sendInitialEvents", strconv.FormatBool(*o.SendInitialEvents))
	}
	set("resourceVersionMatch", o.ResourceVersionMatch)
	return q
}

// GetOptions are the query parameters of a get.
type GetOptions struct {
	ResourceVersion string
}

// Query renders the options as URL query parameters.
func (o GetOptions) Query() url.Values {
	q := url.Values{}
	if o.ResourceVersion != "" {
		q.Set("resourceVersion", o.ResourceVersion)
	}
	return q
}

// WriteOptions are the query parameters of create, update and patch.
type WriteOptions struct {
	// DryRun: "All" to run every step but the write.
	DryRun []string
	// FieldManager names the writer.
	FieldManager string
	// FieldValidation: Ignore, Warn or Strict.
	FieldValidation string
}

// Query renders the options as URL query parameters.
func (o WriteOptions) Query() url.Values {
	q := url.Values{}
	for _, d := range o.DryRun {
		q.Add("dryRun", d)
	}
	if o.FieldManager != "" {
		q.Set("fieldManager", o.FieldManager)
	}
	if o.FieldValidation != "" {
		q.Set("fieldValidation", o.FieldValidation)
	}
	return q
}
