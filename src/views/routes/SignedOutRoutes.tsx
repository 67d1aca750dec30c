import { Redirect, Route, Switch } from 'wouter'
import { LoginScreen } from '../auth/LoginScreen'
import { RegisterScreen } from '../auth/RegisterScreen'
import { ForgotPasswordScreen } from '../auth/ForgotPasswordScreen'
import { ResetPasswordScreen } from '../auth/ResetPasswordScreen'
import { InstancePageScreen } from './instance-page-chunk'
import { VerifyEmailSignedOut } from '../email/VerifyEmailScreen'

// Signed-out visitors reach only /login, /register, /forgot-password, /reset-password, /verify-email (mailed links)
// and the instance pages /terms and /privacy (the registration form links to them); anything else goes to /login
// (docs/product.md, "Screens and routes").
export function SignedOutRoutes() {
  return (
    <Switch>
      <Route path="/login" component={LoginScreen} />
      <Route path="/register" component={RegisterScreen} />
      <Route path="/forgot-password" component={ForgotPasswordScreen} />
      <Route path="/reset-password" component={ResetPasswordScreen} />
      <Route path="/verify-email" component={VerifyEmailSignedOut} />
      <Route path="/terms">
        <InstancePageScreen slug="terms" signedIn={false} />
      </Route>
      <Route path="/privacy">
        <InstancePageScreen slug="privacy" signedIn={false} />
      </Route>
      <Route>
        <Redirect to="/login" replace />
      </Route>
    </Switch>
  )
}
