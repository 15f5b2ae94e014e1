// Sign-up and log-in: one form each, the server's error shown as it words it.
import { api } from "./api.js";
import { h } from "./dom.js";

export function showAuth(root, session, mode) {
  const signup = mode === "signup";
  if (session.me) {
    location.hash = "#/lobby";
    return;
  }
  const error = h("p", { class: "error", role: "alert", "data-testid": "auth-error" });
  const name = h("input", { id: "auth-name", name: "name", autocomplete: "username", required: true, maxlength: 64 });
  const password = h("input", {
    id: "auth-password",
    name: "password",
    type: "password",
    required: true,
    autocomplete: signup ? "new-password" : "current-password",
  });
  const submit = h("button", { type: "submit" }, signup ? "Sign up" : "Log in");
  const form = h(
    "form",
    { class: "auth", novalidate: true },
    h("p", {}, h("label", { for: "auth-name" }, "Name"), name),
    h("p", {}, h("label", { for: "auth-password" }, "Password"), password),
    error,
    h("p", {}, submit),
  );
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    error.textContent = "";
    submit.disabled = true;
    try {
      const who = await api("POST", signup ? "/api/signup" : "/api/login", {
        name: name.value,
        password: password.value,
      });
      session.loggedIn(who);
      await session.refresh();
      location.hash = "#/lobby";
    } catch (err) {
      error.textContent = err.message;
      submit.disabled = false;
      password.focus();
    }
  });
  root.append(
    h("h2", {}, signup ? "Sign up" : "Log in"),
    signup
      ? h("p", {}, "A new account starts with a bankroll of 1,000 chips. Have one? ", h("a", { href: "#/login" }, "Log in"), ".")
      : h("p", {}, "New here? ", h("a", { href: "#/signup" }, "Sign up"), "."),
    form,
  );
  name.focus();
}
