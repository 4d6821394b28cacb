package endpoints

import (
	"net/http"

	"platform.io/client/api/meta"

	"platform.io/platform/pkg/apiserver/table"
)

// tablesAllowed says whether a request may be answered with a Table: a
// get, list or watch of a resource, or a get of its status. Anything else
// that asks only for a Table is refused with 406.
func tablesAllowed(info *RequestInfo) bool {
	switch info.Verb {
	case "get", "list", "watch":
		return info.Subresource == "" || info.Subresource == "status"
	}
	return false
}

// tableOptions reads the includeObject parameter and the Table group and
// version the client negotiated; a bad includeObject is a 400.
func (q *request) tableOptions() (table.Options, error) {
	include, err := table.ParseIncludeObject(q.r.URL.Query().Get("includeObject"))
	if err != nil {
		return table.Options{}, err
	}
	return table.Options{Group: q.out.tableGroup, Version: q.out.tableVersion, IncludeObject: include}, nil
}

// writeTable answers with objs as a Table carrying lm.
func (q *request) writeTable(objs []meta.Object, lm meta.ListMeta) {
	opts, err := q.tableOptions()
	if err != nil {
		q.fail(err)
		return
	}
	t, err := table.Build(q.store.Resource, objs, lm, opts)
	if err != nil {
		q.fail(err)
		return
	}
	q.write(http.StatusOK, t)
}

// writeObjectTable answers a get with obj as a one-row Table, which carries
// the object's resourceVersion.
func (q *request) writeObjectTable(obj meta.Object) {
	q.writeTable([]meta.Object{obj}, meta.ListMeta{ResourceVersion: obj.GetObjectMeta().ResourceVersion})
}

// tableEvent turns the object of a watch event into a one-row Table. As
// upstream does, only the first event's Table has column definitions; the
// client keeps using them for the rows that follow.
func (q *request) tableEvent(obj meta.Object) (*meta.Table, error) {
	opts, err := q.tableOptions()
	if err != nil {
		return nil, err
	}
	opts.NoHeaders = q.tableHeadersSent
	t, err := table.Build(q.store.Resource, []meta.Object{obj}, meta.ListMeta{ResourceVersion: obj.GetObjectMeta().ResourceVersion}, opts)
	if err != nil {
		return nil, err
	}
	q.tableHeadersSent = true
	return t, nil
}
