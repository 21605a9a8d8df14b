// nlz3.h: C helpers of the z3 binding. Every helper makes one or more Z3
// calls, checks the error code after each call that can fail, and returns
// it; a result it hands back is already inc_ref'd and belongs to the caller.

#ifndef NLZ3_H
#define NLZ3_H

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <z3.h>

static inline Z3_error_code nl_err(Z3_context c, const void *p) {
	Z3_error_code e = Z3_get_error_code(c);
	if (e == Z3_OK && p == NULL) return Z3_EXCEPTION;
	return e;
}

static inline Z3_error_code nl_keep(Z3_context c, Z3_ast a, Z3_ast *out) {
	Z3_error_code e = nl_err(c, a);
	if (e != Z3_OK) return e;
	Z3_inc_ref(c, a);
	*out = a;
	return Z3_OK;
}

static inline Z3_error_code nl_new_context(Z3_context *out) {
	Z3_config cfg = Z3_mk_config();
	if (cfg == NULL) return Z3_EXCEPTION;
	Z3_set_param_value(cfg, "model", "true");
	Z3_context c = Z3_mk_context_rc(cfg);
	Z3_del_config(cfg);
	if (c == NULL) return Z3_EXCEPTION;
	Z3_set_error_handler(c, NULL);
	*out = c;
	return Z3_OK;
}

static inline Z3_error_code nl_mk_sort(Z3_context c, const char *name, Z3_sort *out) {
	Z3_symbol sym = Z3_mk_string_symbol(c, name);
	Z3_error_code e = Z3_get_error_code(c);
	if (e != Z3_OK) return e;
	Z3_sort s = Z3_mk_uninterpreted_sort(c, sym);
	if ((e = nl_err(c, s)) != Z3_OK) return e;
	Z3_inc_ref(c, Z3_sort_to_ast(c, s));
	*out = s;
	return Z3_get_error_code(c);
}

// nl_mk_decl declares name : dom^arity -> Bool, or a constant of sort dom
// when arity is 0 and dom is given, or a Bool constant when dom is NULL.
static inline Z3_error_code nl_mk_decl(Z3_context c, const char *name, unsigned arity, Z3_sort dom, Z3_func_decl *out) {
	Z3_symbol sym = Z3_mk_string_symbol(c, name);
	Z3_error_code e = Z3_get_error_code(c);
	if (e != Z3_OK) return e;
	Z3_sort b = Z3_mk_bool_sort(c);
	if ((e = nl_err(c, b)) != Z3_OK) return e;
	Z3_sort doms[2] = {dom, dom};
	Z3_func_decl f = Z3_mk_func_decl(c, sym, arity, doms, arity == 0 && dom != NULL ? dom : b);
	if ((e = nl_err(c, f)) != Z3_OK) return e;
	Z3_inc_ref(c, Z3_func_decl_to_ast(c, f));
	*out = f;
	return Z3_get_error_code(c);
}

static inline Z3_error_code nl_mk_app(Z3_context c, Z3_func_decl f, unsigned n, Z3_ast const *args, Z3_ast *out) {
	return nl_keep(c, Z3_mk_app(c, f, n, args), out);
}

static inline Z3_error_code nl_mk_not(Z3_context c, Z3_ast a, Z3_ast *out) {
	return nl_keep(c, Z3_mk_not(c, a), out);
}

static inline Z3_error_code nl_mk_nary(Z3_context c, int and, unsigned n, Z3_ast const *args, Z3_ast *out) {
	return nl_keep(c, and ? Z3_mk_and(c, n, args) : Z3_mk_or(c, n, args), out);
}

static inline Z3_error_code nl_mk_implies(Z3_context c, Z3_ast l, Z3_ast r, Z3_ast *out) {
	return nl_keep(c, Z3_mk_implies(c, l, r), out);
}

static inline Z3_error_code nl_mk_quant(Z3_context c, int forall, Z3_ast v, Z3_ast body, Z3_ast *out) {
	Z3_app app = Z3_to_app(c, v);
	Z3_error_code e = nl_err(c, app);
	if (e != Z3_OK) return e;
	Z3_ast q = forall ? Z3_mk_forall_const(c, 0, 1, &app, 0, NULL, body)
	                  : Z3_mk_exists_const(c, 0, 1, &app, 0, NULL, body);
	return nl_keep(c, q, out);
}

static inline void nl_dec_refs(Z3_context c, unsigned n, Z3_ast const *as) {
	for (unsigned i = 0; i < n; i++) Z3_dec_ref(c, as[i]);
}

static inline Z3_error_code nl_set_uint(Z3_context c, Z3_params p, const char *k, unsigned v) {
	Z3_symbol sym = Z3_mk_string_symbol(c, k);
	Z3_error_code e = Z3_get_error_code(c);
	if (e != Z3_OK) return e;
	Z3_params_set_uint(c, p, sym, v);
	return Z3_get_error_code(c);
}

static inline Z3_error_code nl_new_solver(Z3_context c, unsigned timeout_ms, unsigned rlimit, unsigned seed, Z3_solver *out) {
	Z3_solver s = Z3_mk_simple_solver(c);
	Z3_error_code e = nl_err(c, s);
	if (e != Z3_OK) return e;
	Z3_solver_inc_ref(c, s);
	Z3_params p = Z3_mk_params(c);
	if ((e = nl_err(c, p)) != Z3_OK) { Z3_solver_dec_ref(c, s); return e; }
	Z3_params_inc_ref(c, p);
	if ((e = nl_set_uint(c, p, "timeout", timeout_ms)) == Z3_OK &&
	    (e = nl_set_uint(c, p, "rlimit", rlimit)) == Z3_OK &&
	    (e = nl_set_uint(c, p, "random_seed", seed)) == Z3_OK) {
		Z3_solver_set_params(c, s, p);
		e = Z3_get_error_code(c);
	}
	Z3_params_dec_ref(c, p);
	if (e != Z3_OK) { Z3_solver_dec_ref(c, s); return e; }
	*out = s;
	return Z3_OK;
}

static inline Z3_error_code nl_model(Z3_context c, Z3_solver s, Z3_model *out) {
	Z3_model m = Z3_solver_get_model(c, s);
	Z3_error_code e = Z3_get_error_code(c);
	if (e == Z3_OK && m == NULL) e = Z3_EXCEPTION;
	if (e != Z3_OK) return e;
	Z3_model_inc_ref(c, m);
	*out = m;
	return Z3_OK;
}

// nl_universe finds the universe of u in m. When m has no universe for u
// it leaves *out NULL and returns Z3_OK.
static inline Z3_error_code nl_universe(Z3_context c, Z3_model m, Z3_sort u, Z3_ast_vector *out, unsigned *n) {
	*out = NULL;
	*n = 0;
	unsigned k = Z3_model_get_num_sorts(c, m);
	Z3_error_code e = Z3_get_error_code(c);
	for (unsigned i = 0; e == Z3_OK && i < k; i++) {
		Z3_sort s = Z3_model_get_sort(c, m, i);
		if ((e = Z3_get_error_code(c)) != Z3_OK) return e;
		if (!Z3_is_eq_sort(c, s, u)) continue;
		Z3_ast_vector v = Z3_model_get_sort_universe(c, m, u);
		if ((e = Z3_get_error_code(c)) != Z3_OK) return e;
		Z3_ast_vector_inc_ref(c, v);
		*n = Z3_ast_vector_size(c, v);
		*out = v;
		return Z3_get_error_code(c);
	}
	return e;
}

static inline Z3_error_code nl_vector_get(Z3_context c, Z3_ast_vector v, unsigned n, Z3_ast *out) {
	for (unsigned i = 0; i < n; i++) {
		out[i] = Z3_ast_vector_get(c, v, i);
		Z3_error_code e = Z3_get_error_code(c);
		if (e != Z3_OK) return e;
	}
	return Z3_OK;
}

// nl_eval sets *val to 1 or 0 for the value of f(args) in m, completing
// the model where it says nothing; *val is -1 if the value is not a
// Boolean constant.
static inline Z3_error_code nl_eval(Z3_context c, Z3_model m, Z3_func_decl f, unsigned arity, Z3_ast const *args, signed char *val) {
	Z3_ast t = Z3_mk_app(c, f, arity, args);
	Z3_error_code e = Z3_get_error_code(c);
	if (e != Z3_OK) return e;
	Z3_inc_ref(c, t);
	Z3_ast r = NULL;
	bool ok = Z3_model_eval(c, m, t, true, &r);
	e = Z3_get_error_code(c);
	if (e == Z3_OK && (!ok || r == NULL)) e = Z3_EXCEPTION;
	if (e == Z3_OK) {
		Z3_inc_ref(c, r);
		Z3_lbool b = Z3_get_bool_value(c, r);
		e = Z3_get_error_code(c);
		*val = b == Z3_L_TRUE ? 1 : b == Z3_L_FALSE ? 0 : -1;
		Z3_dec_ref(c, r);
	}
	Z3_dec_ref(c, t);
	return e;
}

// nl_eval_table fills out with f's value on every tuple over elems: n
// entries for arity 1, n*n (row-major) for arity 2.
static inline Z3_error_code nl_eval_table(Z3_context c, Z3_model m, Z3_func_decl f, unsigned arity, unsigned n, Z3_ast const *elems, signed char *out) {
	Z3_ast args[2];
	for (unsigned i = 0; i < n; i++) {
		args[0] = elems[i];
		if (arity == 1) {
			Z3_error_code e = nl_eval(c, m, f, 1, args, &out[i]);
			if (e != Z3_OK) return e;
			continue;
		}
		for (unsigned j = 0; j < n; j++) {
			args[1] = elems[j];
			Z3_error_code e = nl_eval(c, m, f, 2, args, &out[i*n+j]);
			if (e != Z3_OK) return e;
		}
	}
	return Z3_OK;
}

// nl_core writes the ast ids of the unsat core into ids (at most cap).
static inline Z3_error_code nl_core(Z3_context c, Z3_solver s, unsigned cap, unsigned *ids, unsigned *n) {
	Z3_ast_vector v = Z3_solver_get_unsat_core(c, s);
	Z3_error_code e = Z3_get_error_code(c);
	if (e == Z3_OK && v == NULL) e = Z3_EXCEPTION;
	if (e != Z3_OK) return e;
	Z3_ast_vector_inc_ref(c, v);
	unsigned k = Z3_ast_vector_size(c, v);
	*n = k;
	for (unsigned i = 0; i < k && i < cap && e == Z3_OK; i++) {
		ids[i] = Z3_get_ast_id(c, Z3_ast_vector_get(c, v, i));
		e = Z3_get_error_code(c);
	}
	Z3_ast_vector_dec_ref(c, v);
	return e;
}


// nl_rlimit_count reads the context's cumulative resource counter through
// the statistics of s; *out is left alone if s reports none.
static inline Z3_error_code nl_rlimit_count(Z3_context c, Z3_solver s, double *out) {
	Z3_stats st = Z3_solver_get_statistics(c, s);
	Z3_error_code e = nl_err(c, st);
	if (e != Z3_OK) return e;
	Z3_stats_inc_ref(c, st);
	unsigned n = Z3_stats_size(c, st);
	for (unsigned i = 0; i < n; i++) {
		if (strcmp(Z3_stats_get_key(c, st, i), "rlimit count") != 0) continue;
		*out = Z3_stats_is_uint(c, st, i) ? (double)Z3_stats_get_uint_value(c, st, i)
		                                  : Z3_stats_get_double_value(c, st, i);
		break;
	}
	e = Z3_get_error_code(c);
	Z3_stats_dec_ref(c, st);
	return e;
}

#endif
