package openapi

import "strconv"

// bearerToken describes the token authentication kubectl uses.
var bearerToken = map[string]any{
	"type": "apiKey", "name": "authorization", "in": "header",
	"description": "Bearer token authentication",
}

// v2Document is the swagger 2.0 document of every path and definition.
func v2Document(d *definitions, info Info, paths map[string]*pathItem) map[string]any {
	defs := map[string]any{}
	for name, s := range d.defs {
		defs[name] = s.v2()
	}
	ps := map[string]any{}
	for path, item := range paths {
		ps[path] = item.v2()
	}
	return map[string]any{
		"swagger":             "2.0",
		"info":                map[string]any{"title": info.Title, "version": info.Version},
		"paths":               ps,
		"definitions":         defs,
		"securityDefinitions": map[string]any{"BearerToken": bearerToken},
		"security":            []any{map[string]any{"BearerToken": []any{}}},
	}
}

// v3Document is the OpenAPI 3.0 document of one group version's paths,
// with the schemas they reach.
func v3Document(d *definitions, info Info, paths map[string]*pathItem) map[string]any {
	roots := []string{metaDef("WatchEvent")}
	ps := map[string]any{}
	for path, item := range paths {
		ps[path] = item.v3()
		for _, op := range item.Ops {
			op.refs(func(name string) { roots = append(roots, name) })
		}
	}
	schemas := map[string]any{}
	for _, name := range sortedDefs(d.closure(roots)) {
		schemas[name] = d.defs[name].v3()
	}
	return map[string]any{
		"openapi": "3.0.0",
		"info":    map[string]any{"title": info.Title, "version": info.Version},
		"paths":   ps,
		"components": map[string]any{
			"schemas":         schemas,
			"securitySchemes": map[string]any{"BearerToken": bearerToken},
		},
		"security": []any{map[string]any{"BearerToken": []any{}}},
	}
}

func (item *pathItem) v2() map[string]any {
	m := map[string]any{}
	if len(item.Params) > 0 {
		m["parameters"] = paramsV2(item.Params)
	}
	for method, op := range item.Ops {
		m[method] = op.v2()
	}
	return m
}

func (item *pathItem) v3() map[string]any {
	m := map[string]any{}
	if len(item.Params) > 0 {
		m["parameters"] = paramsV3(item.Params)
	}
	for method, op := range item.Ops {
		m[method] = op.v3()
	}
	return m
}

// common renders the fields both formats share.
func (o *operation) common() map[string]any {
	m := map[string]any{
		"operationId": o.ID,
		"description": o.Description,
		"tags":        []string{o.Tag},
	}
	if o.Action != "" {
		m[extAction] = o.Action
	}
	if o.GVK != nil {
		m[extGVK] = map[string]any{"group": o.GVK.Group, "version": o.GVK.Version, "kind": o.GVK.Kind}
	}
	return m
}

func (o *operation) v2() map[string]any {
	m := o.common()
	m["schemes"] = []string{"https"}
	m["produces"] = o.Produces
	if o.Consumes != nil {
		m["consumes"] = o.Consumes
	}
	params := paramsV2(o.Params)
	if o.Body != "" {
		params = append(params, map[string]any{
			"name": "body", "in": "body", "required": o.BodyRequired,
			"schema": map[string]any{"$ref": refV2 + o.Body},
		})
	}
	if len(params) > 0 {
		m["parameters"] = params
	}
	responses := map[string]any{}
	for _, r := range o.Responses {
		resp := map[string]any{"description": r.Description}
		if r.Def != "" {
			resp["schema"] = map[string]any{"$ref": refV2 + r.Def}
		}
		responses[strconv.Itoa(r.Code)] = resp
	}
	m["responses"] = responses
	return m
}

func (o *operation) v3() map[string]any {
	m := o.common()
	if len(o.Params) > 0 {
		m["parameters"] = paramsV3(o.Params)
	}
	if o.Body != "" {
		m["requestBody"] = map[string]any{"content": content(o.Consumes, o.Body), "required": o.BodyRequired}
	}
	responses := map[string]any{}
	for _, r := range o.Responses {
		resp := map[string]any{"description": r.Description}
		if r.Def != "" {
			resp["content"] = content(o.Produces, r.Def)
		}
		responses[strconv.Itoa(r.Code)] = resp
	}
	m["responses"] = responses
	return m
}

// content is a v3 content map giving each media type the schema def.
func content(types []string, def string) map[string]any {
	m := map[string]any{}
	for _, t := range types {
		m[t] = map[string]any{"schema": map[string]any{"$ref": refV3 + def}}
	}
	return m
}

func paramsV2(ps []param) []any {
	out := make([]any, 0, len(ps))
	for _, p := range ps {
		out = append(out, p.v2())
	}
	return out
}

func paramsV3(ps []param) []any {
	out := make([]any, 0, len(ps))
	for _, p := range ps {
		out = append(out, p.v3())
	}
	return out
}
