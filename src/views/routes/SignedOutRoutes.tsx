import { Redirect, Route, Switch } from 'wouter'
import { LoginScreen } from '../auth/LoginScreen'
import { RegisterScreen } from '../auth/RegisterScreen'

// Spec section 2: signed-out visitors reach only /login and /register; anything else goes to /login.
export function SignedOutRoutes() {
  return (
    <Switch>
      <Route path="/login" component={LoginScreen} />
      <Route path="/register" component={RegisterScreen} />
      <Route>
        <Redirect to="/login" replace />
      </Route>
    </Switch>
  )
}
